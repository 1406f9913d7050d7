import picomatch from 'picomatch';

// Globs in VS Code's syntax (`**`, `*`, `?`, `{a,b}`, `[abc]`), over workspace-relative paths. A pattern
// with no `/` matches a file name at any depth (`*.ts` is `**/*.ts`), as in VS Code's search and in
// .gitignore: what a model means by it. Both adapters use this one rule.

/** The pattern as matched against whole workspace-relative paths. */
export function anchoredGlob(pattern: string): string {
  const trimmed = pattern.trim().replace(/^\.\//, '').replace(/^\//, '');
  return trimmed.includes('/') ? trimmed : `**/${trimmed}`;
}

/** A predicate over workspace-relative paths (dotfiles included). */
export function globMatcher(pattern: string): (path: string) => boolean {
  return picomatch(anchoredGlob(pattern), { dot: true });
}
