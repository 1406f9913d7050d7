import * as fs from 'node:fs';
import * as path from 'node:path';

// The display language of the workbench under test, set as a user does: code-server makes a language the
// window's only where a language pack for it is installed, so a stub pack (translating nothing of VS Code's)
// stands in for one. Loopwire's words then come from its own bundles.

/**
 * A language pack for zh-cn that translates nothing of VS Code's, and zh-cn as the display language (taken
 * at the window's next start or reload).
 */
export function displayLanguageZhCn(userData: string): void {
  const translations = path.join(userData, 'stub-language-pack', 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const packs = {
    'zh-cn': {
      hash: 'loopwire-test-stub',
      extensions: [{ extensionIdentifier: { id: 'loopwire-test.stub-zh-cn' }, version: '1.0.0' }],
      translations: { vscode: translations },
      label: '中文(简体)',
    },
  };
  fs.writeFileSync(path.join(userData, 'languagepacks.json'), JSON.stringify(packs));
  fs.writeFileSync(path.join(userData, 'User', 'argv.json'), JSON.stringify({ locale: 'zh-cn' }));
}
