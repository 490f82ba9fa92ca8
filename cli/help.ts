// The help of each subcommand, with every variable the suite reads: the flags set
// the same variables, so a CI job may use either.

const VARIABLES = `Environment (flags above set the same variables):
  TARGET                  name of an entry in the targets file
  TARGETS_FILE            the targets file (default ./targets.yaml if present, else the suite's own)
  TARGET_SURFACE          local, cloud, serverless, router or registry (ad hoc target, or narrows one)
  TARGET_BASE_URL         base URL of an ad hoc target (with its http:// or https:// scheme)
  TARGET_TOKEN            bearer token / API key of that target (redacted from every report)
  REFERENCE_PORT          first of the embedded reference's five ports (default 18189)
  REFERENCE_FAULT, REFERENCE_CONTROL   a fault or control of the embedded reference
  REPORTS_DIR             where reports go (default ./reports)
  CONFORMANCE_PROFILE     quick (default) or full
  CONFORMANCE_STRICT      1: SHOULD failures fail the run too
  CONFORMANCE_BASELINE    an expected-failures file
  CONFORMANCE_QUIET       1: reports only, no console listing
  CONFORMANCE_HTTP_TIMEOUT_MS, CONFORMANCE_MAX_BODY_BYTES   bounds of every exchange (15000 ms, 16 MiB)
  CONFORMANCE_JOB_DEADLINE_MS    how long a polled job may take (30000 ms)
  CONFORMANCE_STREAM_GRACE_MS    how long a v1 stream's end may lag behind the polled end (5000 ms)
  CONFORMANCE_RETRY_AFTER_MAX_MS the longest Retry-After waited out (60000 ms)
  CONFORMANCE_LIST_WALK_MAX_PAGES  pages of one walk of the whole v2 job list (1000)
  CONFORMANCE_PROBE_TIMEOUT_MS   how long the preflight waits per surface (10000 ms)
  CONFORMANCE_CIRCUIT_TIMEOUTS   timeouts in a row after which a surface counts as stopped (3)
  FC_SEED, FC_PATH, FC_NUM_RUNS  replay or resize a property-based check`;

/** The flags that choose a target, shared by run and load (they set the variables above). */
const TARGET_FLAGS = `  --target NAME          an entry of the targets file (TARGET)
  --targets-file FILE    the targets file (TARGETS_FILE)
  --surface SURFACE      local, cloud, serverless, router, registry (TARGET_SURFACE); alone, one
                         surface of the embedded reference
  --base-url URL         an ad hoc target's base URL (TARGET_BASE_URL; needs --surface)
  --token-env NAME       the variable holding the ad hoc target's key (sets TARGET_TOKEN from it)`;

export const MAIN = `usage: workflow-conformance <command> [options]

Conformance suite for the workflow API v2, the v1 cloud operations, the node registry
operation and the model router.

Commands:
  run        run the suite against a target (no target: the embedded reference server)
  explore    walk every operation with requests drawn from the contracts (valid, and
             broken in one place); runs in the full profile of run too
  replay     judge a recorded run (run --record) again, offline, with the current checks
  matrix     one table of several runs' results side by side (rule x implementation)
  seeds      the seed statements with their locators, from your copy of the seeds
  init       write a commented targets file for one surface
  reference  start the reference server
  load       run a load profile against the target (load merge, load compare: its reports)
  merge-reports  join the blob reports of a sharded run (run --shard=i/n) into one report
  proxy      stand between your own clients and the server, pass their traffic unchanged
             and judge every exchange as it passes (a passive run: nothing of its own sent)
  check-har  judge a HAR file recorded elsewhere (a browser, Playwright, a proxy) the same way

workflow-conformance <command> --help   the options of one command
${VARIABLES}`;

export const RUN = `usage: workflow-conformance run [options] [playwright options and spec files]

${TARGET_FLAGS}
  --reports DIR          where reports go (REPORTS_DIR, default ./reports)
  --profile quick|full   property runs per check (CONFORMANCE_PROFILE); full also runs
                         the contract-driven explorer (see explore --help)
  --strict               SHOULD failures fail the run too (CONFORMANCE_STRICT=1)
  --baseline FILE        expected failures (CONFORMANCE_BASELINE)
  --fault NAME           with the embedded reference: break one rule (REFERENCE_FAULT)
  --seeds DIR            your copy of the two specification documents: failures quote the
                         statement their rule rests on (CONFORMANCE_SEEDS; default: SEEDS_DIR,
                         a seeds/ folder beside the targets file or here, ../shared/seeds)
  --rule ID[,ID]         only the tests of these rules (a --grep on their tags)
  --record FILE          keep every exchange of the run as HAR 1.2, credentials redacted
  --shard=I/N            run part I of N (on N machines); join them with merge-reports
  --load NAMES|all       then run these load profiles (comma-separated; load --list names
                         them) against the same target, on each of their surfaces it has, at
                         their quick size (full: their own): their checks judge the LOAD.*
                         cells of the one conformance.json
                         (one verdict); each load report is written to reports/load/ and linked
  -h, --help             this help

Anything else goes to Playwright: --project=v2-cloud, --grep 'signed URL',
--workers=1, spec files. Exit status: 0 pass, 1 fail or error (reports/conformance.json
says which and why), 2 usage or configuration error.

Before any test a preflight checks the target: variables named by *_env are set, no
literal secrets, URLs with a scheme, every surface answers, and its credential is
accepted. A mistake there stops the run in seconds with one message (verdict error).

${VARIABLES}`;

export const EXPLORE = `usage: workflow-conformance explore [run options] [playwright options]

Contract-driven exploration: for every operation of the four contracts, requests drawn
with fast-check from the contract's schemas (path, query and header parameters and the
body), valid ones and ones broken in exactly one place (a required member left out,
another type, out of range, outside an enum or format, oversized). Every answer is judged
by the contract and the family's error checks, and under the rules that fix the answer
to a mistake (no 5xx where a rule says the mistake is refused, one status class for one
mistake). run --profile full includes the same tests.

  --profile quick|full   requests per operation: 25, or 200 (FC_NUM_RUNS overrides)
  --target, --surface, --base-url, --token-env, --reports, --fault   as for run

Every operation prints its seed; FC_SEED=<seed> sends the same requests again, and
FC_SEED=<seed> FC_PATH=<run> FC_NUM_RUNS=1 --grep <operation> the one a failure names.
Operations that cost money or write shared state (v2 job submits, v1 prompts, router
runs and queued submits, registry translation writes) are sent only when the target's
scenario sets explore_paid: true, at most explore_paid_max (20) requests each.
The report: reports/explore/explore.md (requests, answers by status, distinct failures
with a curl each), one JSON per operation beside it, and the usual conformance report.

${VARIABLES}`;

export const REPLAY = `usage: workflow-conformance replay FILE [--reports DIR] [playwright options]

Runs the specs of a recording (run --record FILE) again with the current checks,
answering every request from the recording: no connection is opened. The v1
WebSocket is replayed from its recorded frames, in their recorded order and times. A
request or connection the recording has no answer for ends that check in error
("not in the recording: <method> <url>"), never in a failure. Traffic the proxy
kept (proxy --record FILE) has no specs to run: it is judged again as check-har does.

  --reports DIR          where reports go (default ./reports)
  -h, --help             this help`;

export const MATRIX = `usage: workflow-conformance matrix REPORT.json... [--differences] [--html FILE] [--out FILE]

One table of several runs' conformance.json side by side: a row per rule, a column
per run and surface, named by what tells the columns apart (the reference's fault or
control, the target, the surface, the base URL, then the file). Markdown goes to
stdout (or --out FILE); --html FILE writes an HTML page too.

  --differences          Markdown: only the rules whose status differs between columns
                         (the rows left out are counted). The HTML page shows the
                         differences by default, with a switch to show every rule.`;

export const SEEDS = `usage: workflow-conformance seeds [W|R] [--section TEXT] [--json] [--seeds DIR]

The statements of the seeds (W the workflow API, R the model router), one a line with its
locator (W:217:ae18d5395772, as reports and contracts/rules.yaml name them), its section and
its text, read from your copy of the seeds: --seeds DIR, else SEEDS_DIR, a seeds/ folder
beside the targets file or in this folder, or ../shared/seeds. The suite ships no seed text.

  --section TEXT         only statements whose section contains TEXT
  --json                 as JSON
  -h, --help             this help

Exit status: 0, 2 no copy of the seeds found.`;

export const INIT = `usage: workflow-conformance init --surface SURFACE [--name NAME] [--base-url URL] [--file FILE] [--force]

Writes a commented targets file (default ./targets.yaml) with one entry for SURFACE
(local, cloud, serverless, router, registry). Credentials are named by environment
variable (token_env), never written in the file. The scenario inputs the reference
uses are listed, commented out: uncomment those your server can give. A key the
suite does not read (a misspelling) stops the run, naming the nearest known key.

  --name NAME            the entry's name (default: the surface)
  --base-url URL         the server's base URL (default: a placeholder to edit)
  --file FILE            where to write (default ./targets.yaml)
  --force                replace an existing file`;

export const LOAD = `usage: workflow-conformance load --profile NAME [options]
       workflow-conformance load --list
       workflow-conformance load merge DIR_OR_REPORT... --out DIR
       workflow-conformance load compare BASELINE.json CURRENT.json [--tolerance PERCENT]

Drives one load profile at a fixed arrival rate against the target (no target: the
embedded reference, started in this process on REFERENCE_PORT if set, else on free
ports). Only loopback targets, unless the target's entry opts in (load: {allow: true,
max_rate, max_duration_s}). Every run is bounded and stops by itself.

${TARGET_FLAGS}
  --profile NAME         the profile (--list names them and the surfaces each needs)
  --duration SECONDS     measured seconds (after the warm-up)
  --rate REQ_PER_S       arrival rate of the whole run (a shard takes its part)
  --threshold EXPR       your limit, e.g. 'p99<500ms', 'errors<1%', 'rate>=40' (repeatable);
                         replaces the profile's limit on the same metric, keeps the others;
                         a latency, error or rate budget decides the exit code only when set
                         here (the profile's suggested budgets are reported as figures)
  --shard I/N            run shard I of N (1/N of the rate); join them with load merge
  --model open|closed    open (default): arrivals on schedule; closed: autocannon's loop
  --arrival constant|poisson   open model: evenly spaced (default) or Poisson arrivals
  --seed N               seed of Poisson arrivals
  --fault NAME           with the embedded reference: break one rule
  --out DIR              where the reports go (default ./reports/load, or $REPORTS_DIR/load)
  --conformance FILE     join this run into an existing conformance.json: its checks judge
                         the profile's LOAD.* cells, the verdict is computed again, the load
                         report is linked; the exit status is then that verdict's
  --quiet                no live progress
  -h, --help             this help

Exit status: 0 pass, 1 a threshold or check failed or nothing was judged (the profile was
skipped: the line and the report say why), 2 the run could not start, 130 interrupted.`;

export const LOAD_MERGE = `usage: workflow-conformance load merge DIR_OR_REPORT... --out DIR

Joins the reports of one profile's shards (load --shard I/N, one directory or report per
shard) into one report: counts summed, HDR histograms added (never averaged
percentiles), thresholds evaluated again. Refuses a missing or doubled shard, shards of
different profiles or load models, and shards that ran against different servers.

  --out DIR              where the merged report goes
  -h, --help             this help

Exit status: 0 pass, 1 fail or every shard skipped, 2 the inputs cannot be merged, 130 a
shard was interrupted.`;

export const LOAD_COMPARE = `usage: workflow-conformance load compare BASELINE.json CURRENT.json [--tolerance PERCENT]

Compares two runs of one profile. A metric is a regression when it is worse than the
baseline by more than the tolerance (default 10 %) and by more than its noise floor, and a
latency only when the runs' per-second figures differ as distributions (Mann-Whitney U,
p < 0.05): inside the noise it reads "no significant change", either way round. The table
prints each floor and p. A verdict, threshold or check that went from pass to fail is a
regression too. Runs of different targets, durations or rates are compared with a
warning; different profiles or load models are refused.

  --tolerance PERCENT    relative change allowed (default 10)
  -h, --help             this help

Exit status: 0 no regression, 1 regressions, 2 the files cannot be compared.`;

export const MERGE_REPORTS = `usage: workflow-conformance merge-reports BLOB_DIR [--reports DIR]

Joins the blob reports of a sharded run (run --shard=I/N on each machine writes
reports/blob-report/; gather them into BLOB_DIR) into one HTML report, junit.xml and
conformance.{json,md}, as one unsharded run writes them. Give it the same
CONFORMANCE_STRICT, CONFORMANCE_PROFILE and CONFORMANCE_BASELINE as the shards.

  --reports DIR          where the merged reports go (REPORTS_DIR, default ./reports)
  -h, --help             this help

Exit status: 0 the merged verdict is pass, 1 fail or error, 2 usage error.`;

export const PROXY = `usage: workflow-conformance proxy --upstream URL --surface SURFACE [--port P] [--duration D] [--record FILE]
       workflow-conformance proxy --target NAME [--surface SURFACE] [--port P] ...

A validating proxy on 127.0.0.1: point your own clients (the SDK, the web front end, a
customer's script) at it instead of the server. It passes every request and answer
unchanged (bodies streamed as they arrive, event streams included; WebSocket upgrades
and every frame), and judges each exchange after it passed with every check that needs
no request of its own: the contract (status declared, body schema, headers), the error
envelope and code/status pairs, id formats, header rules, the v1 WebSocket's messages and
binary frames, and the stateful rules an observer can hold (queue statuses, replays of a
key, a stream against polling). A finding never fails or delays a request. It prints one
live line (exchanges, rules judged, findings); on Ctrl-C or after --duration it writes
conformance.json, .md and .html with mode: passive: a rule is judged only where traffic
exercised it (other cells read "not exercised"), each finding carries its exchange and a
curl, the report counts per rule the exchanges that exercised it and the latency the
proxy added. The verdict fails only on MUST findings. Credentials are redacted everywhere.
A server that writes absolute URLs into its answers must name the proxy's address as its
own (as behind any gateway), or clients following them go around the proxy.

  --upstream URL         the server (its base URL; paths are kept under its path)
  --surface SURFACE      local, cloud, serverless, router or registry: the contracts that judge
  --target NAME          a targets-file entry instead (its base_url, brand, scenario inputs)
  --targets-file FILE    the targets file (TARGETS_FILE)
  --port P               the loopback port to listen on (default: any free one, printed)
  --duration D           stop after D seconds (default: on Ctrl-C)
  --record FILE          keep the traffic as HAR 1.2, credentials redacted (replay FILE or
                         check-har FILE judges it again, offline)
  --reports DIR          where reports go (REPORTS_DIR, default ./reports)
  --quiet                no live line
  -h, --help             this help

Exit status: 0 pass, 1 a MUST finding, or nothing judged (no traffic), 2 usage error.`;

export const CHECK_HAR = `usage: workflow-conformance check-har FILE --surface SURFACE [--base-url URL] [--reports DIR]
       workflow-conformance check-har FILE --target NAME [--surface SURFACE]

Judges a HAR 1.2 file recorded elsewhere (a browser's developer tools, Playwright's
recordHar, a recording proxy, proxy --record) exactly as the proxy judges live traffic,
offline, and writes the same report (mode: passive). Exchanges with another host (with
--base-url), on a path no operation of the surface has, or without an answer are listed,
not judged; an answer whose body the recorder left out is not judged by its body.

  --surface SURFACE      local, cloud, serverless, router or registry: the contracts that judge
  --base-url URL         the server's base URL: only its exchanges are judged (default: any
                         host whose paths are the surface's)
  --target NAME          a targets-file entry instead (its base_url, brand, scenario inputs)
  --targets-file FILE    the targets file (TARGETS_FILE)
  --reports DIR          where reports go (REPORTS_DIR, default ./reports)
  -h, --help             this help

Exit status: 0 pass, 1 a MUST finding, or nothing judged, 2 usage error or not a HAR file.`;
