import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';

// The CLI speaks the language of the terminal: POSIX's locale variables, in their order of precedence,
// pick one of the extension's own bundles (l10n/, two folders up from dist/cli/ and from src/cli/ alike).
// Each of the CLI's bundles holds its own copy of this module, so each configures itself as it loads;
// in English, or with no bundle for the locale, nothing is read and every string stays as written.

/** `zh_CN.UTF-8` → `zh-cn`; C, POSIX and unset: undefined (English). */
export function cliLocale(env: NodeJS.ProcessEnv): string | undefined {
  const raw = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  const locale = raw
    ?.replace(/[.@].*$/, '')
    .replace(/_/g, '-')
    .toLowerCase();
  return locale === undefined || locale === 'c' || locale === 'posix' || locale === '' ? undefined : locale;
}

/** The bundle for `locale` in `dir`: the exact one (`zh-cn`), else the language's (`zh`); none: undefined. */
export function bundleFor(locale: string, dir: string): string | undefined {
  const language = locale.split('-')[0];
  return [locale, language].map((name) => path.join(dir, `bundle.l10n.${name}.json`)).find((file) => existsSync(file));
}

const locale = cliLocale(process.env);
const bundle = locale === undefined ? undefined : bundleFor(locale, path.join(__dirname, '..', '..', 'l10n'));
if (bundle !== undefined) l10n.config({ fsPath: bundle });

/** A user-facing string in the terminal's language; `{0}`, `{1}`… are the arguments. Text for the model stays English. */
export const t = l10n.t;
