// What `vsce publish` would refuse, checked offline before anything is packaged, so that `npm run package`
// fails where the Marketplace would: an API proposal in the manifest (refused outright: "Extensions using
// unallowed proposed API … can't be published"), a missing publisher, version, engine or licence, an icon
// that is not a PNG, SVG images in the README, and an activation event of `*`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The problems of the manifest `pkg` (and the README beside it in `dir`), one sentence each; none: []. */
function publishProblems(pkg, dir) {
  const problems = [];
  if (pkg.enabledApiProposals !== undefined)
    problems.push(
      `package.json declares enabledApiProposals (${[].concat(pkg.enabledApiProposals).join(', ')}): the Marketplace refuses any extension that does`,
    );
  if (typeof pkg.publisher !== 'string' || !/^[a-z0-9][a-z0-9-]*$/i.test(pkg.publisher))
    problems.push('package.json has no valid publisher');
  if (typeof pkg.version !== 'string' || !/^\d+\.\d+\.\d+$/.test(pkg.version))
    problems.push(`package.json's version ${JSON.stringify(pkg.version)} is not MAJOR.MINOR.PATCH`);
  if (typeof pkg.engines?.vscode !== 'string') problems.push('package.json has no engines.vscode');
  if (typeof pkg.license !== 'string' || !fs.existsSync(path.join(dir, 'LICENSE')))
    problems.push('package.json names no license, or LICENSE is missing');
  if (typeof pkg.icon === 'string' && !pkg.icon.toLowerCase().endsWith('.png'))
    problems.push(`the icon ${pkg.icon} is not a PNG (the Marketplace refuses SVG icons)`);
  if ((pkg.activationEvents ?? []).includes('*'))
    problems.push("activationEvents holds '*': activate on what the extension contributes instead");
  const readme = path.join(dir, 'README.md');
  if (fs.existsSync(readme)) {
    const svg = [...fs.readFileSync(readme, 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+\.svg)(?:\s[^)]*)?\)/gi)];
    for (const [, image] of svg) problems.push(`README.md shows an SVG image (${image}): the Marketplace refuses them`);
  }
  return problems;
}

module.exports = { publishProblems };
