// A group of buttons that is one stop of the Tab key: the arrow keys (and Home, End) move
// between its buttons; the one last focused is the one Tab comes back to.

export function roving(group) {
  const buttons = () => [...group.querySelectorAll("button:not([disabled])")];
  const current = (button) => {
    for (const other of buttons()) other.tabIndex = other === button ? 0 : -1;
  };
  const first = group.querySelector('button[aria-pressed="true"]') || buttons()[0];
  if (first) current(first);
  group.addEventListener("focusin", (event) => {
    if (event.target.matches("button")) current(event.target);
  });
  group.addEventListener("keydown", (event) => {
    const list = buttons();
    const at = list.indexOf(document.activeElement);
    if (at < 0) return;
    const to = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: list.length - 1,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = list[(to + list.length) % list.length];
    current(next);
    next.focus();
  });
  return group;
}
