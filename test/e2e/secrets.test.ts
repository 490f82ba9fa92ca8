// Credentials never reach a report or the console: API keys, bearer tokens, signed-URL
// signatures and extra_data partner keys are redacted in transcripts, in failure
// messages (which Playwright copies into the console, JUnit and the HTML report) and in
// the conformance report. Unit checks of the redaction points, then one real suite run
// with a fault on (so failures with transcripts and signed URLs in their messages are
// produced) whose every report file and console line is scanned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import * as accounts from '../../reference/accounts.ts';
import { referenceDevCredentials } from '../../lib/targets.ts';
import { Recorder } from '../../lib/recorder.ts';
import { Redactor } from '../../lib/redact.ts';
import { RuleViolation, SuiteError, show } from '../../lib/violations.ts';
import { runSuite } from '../support/run-suite.ts';

const KEY = 'comfyui-secret-scan-5e2b8d1f0a7c4693';
const SIGNED =
  'http://127.0.0.1:1/storage/blobs/ab?ct=image%2Fpng&expires=1795430419&signature=4b64af9a25e59dde8b5499962b4a3917bb32c0ee357501077b16bbc847192b84';
const PARTNER = 'partner-key-9f8e7d6c5b4a';

test('a rule violation quoting a signed URL, a key and a partner key is redacted in its message and stack', () => {
  new Recorder(new Redactor([KEY])); // a test's recorder registers the target's secrets for messages
  const v = new RuleViolation('V2.URL.OUTPUT_CONTENT_ENDPOINT', 'quotes what came', {
    expected: 'the content endpoint',
    received: show({ url: SIGNED, echoed: `Bearer ${KEY}`, extra_data: { api_key_comfy_org: PARTNER } }),
    context: [`GET ${SIGNED}`],
  });
  for (const text of [v.message, v.stack ?? '']) {
    assert.ok(!text.includes('4b64af9a25e59dde'), text);
    assert.ok(!text.includes(KEY), text);
    assert.ok(!text.includes(PARTNER), text);
  }
  assert.match(v.message, /\[rule:V2\.URL\.OUTPUT_CONTENT_ENDPOINT\]/);
  assert.match(v.message, /signature=\[REDACTED\]/);
  assert.ok(!new SuiteError(`could not open ${SIGNED} with ${KEY}`).message.includes(KEY));
});

test('a transcript redacts request headers, request bodies (extra_data partner key) and response headers and bodies', () => {
  const recorder = new Recorder(new Redactor([KEY]));
  const long = `{"url":"${SIGNED}","pad":"${'x'.repeat(4090 - SIGNED.length)}${KEY}"}`;
  recorder.add({
    operationId: 'postJobs',
    request: {
      method: 'POST',
      url: SIGNED,
      headers: { authorization: `Bearer ${KEY}`, 'x-admin-secret': 'admin-9c1d' },
      json: { workflow: {}, extra_data: { api_key_comfy_org: PARTNER } },
      timeoutMs: 1,
      maxBodyBytes: 1,
    },
    response: {
      status: 302,
      headers: { location: SIGNED, 'content-type': 'application/json' },
      body: Buffer.from(long),
      truncated: false,
      elapsedMs: 1,
    },
  });
  const t = recorder.transcript();
  for (const secret of [KEY, PARTNER, '4b64af9a25e59dde', 'admin-9c1d', KEY.slice(0, 12)])
    assert.ok(!t.includes(secret), `${secret} in:\n${t}`);
  assert.match(t, /"api_key_comfy_org": "\[REDACTED\]"/);
});

// --- the scan ---------------------------------------------------------------

/** Every credential the reference knows: its development keys and secrets. */
function referenceSecrets(): string[] {
  const out = new Set<string>(
    Object.values(referenceDevCredentials(path.resolve(import.meta.dirname, '../../targets.yaml'))),
  );
  const walk = (v: unknown): void => {
    if (typeof v === 'string' && /^comfyui-|secret/i.test(v) && v.length >= 16) out.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk({ ...accounts });
  return [...out];
}

// Secret-carrying shapes whose value is not redacted. `[?&]` alone would match minified
// code in the HTML report's viewer, so the URL shapes require a value of 16+ characters.
const LEAK_SHAPES: RegExp[] = [
  new RegExp(
    /(?:[?&]|%3F|%26|\\u0026)(?:signature|sig|token|api_?key|x-goog-signature|x-amz-signature)/.source +
      /(?:=|%3D|\\u003d)(?!\[REDACTED\]|%5BREDACTED)[A-Za-z0-9%._~-]{16,}/.source,
    'i',
  ),
  /Bearer\s+(?!\[REDACTED\])[A-Za-z0-9._~+/=-]{16,}/,
  /\\?"api_key_[a-z]+_org\\?"\s*:\s*\\?"(?!\[REDACTED\])[^"\\]+/,
  /^[<> ]*(?:authorization|x-api-key):\s*(?!\[REDACTED\])\S+/im,
];

/** The HTML report embeds its data as a base64 zip: return the page and every entry's text. */
function htmlTexts(html: string): Array<[string, string]> {
  const m = /<template id="playwrightReportBase64">data:application\/zip;base64,([A-Za-z0-9+/=]+)</.exec(html);
  if (!m) return [['index.html', html]];
  const out: Array<[string, string]> = [['index.html (page)', html.replace(m[1], '')]];
  const zip = Buffer.from(m[1], 'base64');
  let end = zip.length - 22;
  while (end > 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  let at = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLen = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLen).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    out.push([`index.html zip:${name}`, (method === 8 ? inflateRawSync(raw) : raw).toString('utf8')]);
    at += 46 + nameLen + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  assert.ok(out.length > 2, 'the HTML report holds its data entries');
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

function leaksIn(where: string, text: string, secrets: string[]): string[] {
  const found: string[] = [];
  for (const s of secrets) {
    // The key itself, and its distinctive tail (a partial leak).
    for (const piece of [s, s.slice(-12)]) if (text.includes(piece)) found.push(`${where}: ${piece}`);
  }
  for (const shape of LEAK_SHAPES) {
    const m = shape.exec(text);
    if (m) found.push(`${where}: ${m[0].slice(0, 120)}`);
  }
  return found;
}

test('a suite run with failures leaves no credential in any report file or in its console output', async () => {
  // output-url-signed makes a job output a signed storage URL: the failure message
  // quotes it, and its transcript carries the bearer key and the signed URLs.
  const run = await runSuite({
    fault: 'output-url-signed',
    args: ['--project=v2-cloud', 'specs/v2/jobs.spec.ts', 'specs/v2/content.spec.ts', 'specs/v2/auth.spec.ts'],
    env: { CONFORMANCE_QUIET: '0' },
    keep: true,
    timeoutMs: 300_000,
  });
  try {
    assert.notEqual(run.exitCode, 0, 'the fault fails the run');
    const secrets = referenceSecrets();
    assert.ok(secrets.includes(accounts.CLOUD_KEYS.alice));
    const files = filesUnder(run.reportsDir);
    const names = files.map((f) => path.relative(run.reportsDir, f));
    for (const expected of ['conformance.json', 'conformance.md', 'junit.xml', path.join('html', 'index.html')])
      assert.ok(names.includes(expected), `${expected} written: ${names.join(', ')}`);

    const texts: Array<[string, string]> = [['console output', run.output]];
    for (const f of files) {
      const rel = path.relative(run.reportsDir, f);
      const text = readFileSync(f, 'utf8');
      texts.push(
        ...(rel.endsWith('.html')
          ? htmlTexts(text).map(([n, t]): [string, string] => [`${rel} ${n}`, t])
          : [[rel, text] as [string, string]]),
      );
    }
    // The scan is only worth something if the failure and its evidence are there.
    const all = texts.map(([, t]) => t).join('\n');
    assert.match(all, /\[rule:V2\.URL\.OUTPUT_CONTENT_ENDPOINT\]/);
    assert.match(all, /signature=\[REDACTED\]/, 'a signed URL was quoted (redacted)');
    assert.match(all, /authorization: \[REDACTED\]/, 'a transcript with the credential header was kept');

    const leaks = texts.flatMap(([where, text]) => leaksIn(where, text, secrets));
    assert.deepEqual(leaks, [], `credentials found:\n${leaks.join('\n')}`);
  } finally {
    rmSync(run.reportsDir, { recursive: true, force: true });
  }
});
