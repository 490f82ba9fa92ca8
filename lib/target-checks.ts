// Static checks of one targets-file entry, before anything is sent: a user's mistake
// in the file must read as that mistake, in seconds, never as a server's rule failure.
//
//   - a credential written as a literal (`token: <key>`) is refused: files name
//     credentials by environment variable, so a key never sits in a repository;
//   - a `*_env` value must be a variable NAME; one that looks like a key itself is
//     refused without echoing it;
//   - the surface's own `token_env` must name a set variable (scenario variables may be
//     unset: the checks needing them are skipped with that reason, listed as notices);
//   - every `base_url` has an http:// or https:// scheme.

type Env = Record<string, string | undefined>;
type Raw = Record<string, unknown>;

/** Keys that carry a credential when written without `_env`. `api_key_prefix`, `admin_secret_header` are not. */
const SECRET_KEY = /(^|_)(token|key|api_key|apikey|secret|jwt|password|credential)$/i;
/** A conventional environment variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface EntryFindings {
  /** Mistakes that stop the run. */
  errors: string[];
  /** Things a reader should know (an unset scenario variable), which do not stop it. */
  notices: string[];
  /** Values that must be redacted because the file carried them where a name belonged. */
  leaked: string[];
}

/** Does a string given as a variable name look like a credential instead? */
export function looksLikeSecret(value: string): boolean {
  if (!ENV_NAME.test(value)) return true;
  // Variable names are conventionally upper case; a long mixed-case or lower-case
  // token with digits is a key pasted into the wrong field.
  return value.length >= 16 && /[a-z]/.test(value) && /\d/.test(value);
}

/** Did the user write `localhost:8189` or `127.0.0.1:8189` rather than a URL? */
export function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL; write it with its scheme, e.g. http://${value.replace(/^\/+/, '')}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `"${value}" has no http:// or https:// scheme; did you mean http://${value}?`;
  return undefined;
}

function walk(raw: Raw, where: string, env: Env, out: EntryFindings, topLevel: boolean): void {
  for (const [key, value] of Object.entries(raw)) {
    const at = `${where}.${key}`;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      walk(value as Raw, at, env, out, false);
      continue;
    }
    if (typeof value !== 'string') continue;
    if (key.endsWith('_env')) {
      if (looksLikeSecret(value)) {
        out.leaked.push(value);
        out.errors.push(
          `${at} must name an environment variable, but its value looks like a credential itself (not ` +
            `shown); export the credential as a variable and write its name here`,
        );
      } else if (env[value] === undefined || env[value] === '') {
        if (topLevel && key === 'token_env')
          out.errors.push(
            `${at} names $${value}, which is not set; export it (the credential for this surface) or remove token_env to send none`,
          );
        else out.notices.push(`${at}: $${value} is not set, so checks that need ${key.slice(0, -4)} are skipped`);
      }
    } else if (SECRET_KEY.test(key)) {
      out.leaked.push(value);
      out.errors.push(
        `${at} holds a literal credential (not shown); targets files never carry secrets: export it and write ${key}_env: <VARIABLE NAME> instead`,
      );
    } else if (key === 'base_url' || key.endsWith('_base_url')) {
      const problem = urlProblem(value);
      if (problem) out.errors.push(`${at}: ${problem}`);
    }
  }
}

/** Findings for one surface's entry (`where` names it in messages, e.g. `target cloud: surfaces.cloud`). */
export function checkSurfaceEntry(where: string, entry: Raw, env: Env): EntryFindings {
  const out: EntryFindings = { errors: [], notices: [], leaked: [] };
  walk(entry, where, env, out, true);
  return out;
}
