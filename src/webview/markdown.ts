import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

// Model text is untrusted: markdown-it with raw HTML off (it escapes it), then DOMPurify over the result,
// so a payload that survives one still meets the other. No inline styles (the CSP forbids them) and no
// links that leave the panel by themselves: they are shown, and opened by the host only when clicked.

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: false });

const PURIFY = {
  FORBID_ATTR: ['style'],
  FORBID_TAGS: ['style', 'img', 'iframe', 'form', 'input', 'button', 'textarea', 'select'],
  ALLOW_DATA_ATTR: false,
};

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(markdown.render(text), PURIFY);
}
