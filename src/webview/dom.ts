// Building elements without HTML strings: every text goes in as a text node, so a file name or a line of
// code can never become markup.

type Child = Node | string | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; attrs?: Record<string, string>; on?: { click?: () => void } } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value);
  if (props.on?.click) element.addEventListener('click', props.on.click);
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

/** A button with a codicon and an accessible name (the label, shown or not). */
export function button(
  label: string,
  onClick: () => void,
  options: { icon?: string; showLabel?: boolean; kind?: 'primary' | 'secondary' | 'icon'; title?: string } = {},
): HTMLButtonElement {
  const { icon, showLabel = true, kind = 'secondary' } = options;
  return h(
    'button',
    {
      class: `button ${kind}`,
      attrs: { type: 'button', 'aria-label': label, title: options.title ?? label },
      on: { click: onClick },
    },
    icon ? h('span', { class: `codicon codicon-${icon}`, attrs: { 'aria-hidden': 'true' } }) : undefined,
    showLabel ? h('span', { class: 'label' }, label) : undefined,
  );
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
