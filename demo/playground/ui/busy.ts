/**
 * A button whose work is running. Not `disabled`: a disabled button drops the keyboard focus to
 * the page's body, so after every Compile or Deploy a keyboard user had to find their place
 * again. A busy button keeps the focus, says it is unavailable (aria-disabled, which assistive
 * technology and the stylesheet read), and its handler ignores activations until it is done.
 */
export function setBusy(button: HTMLButtonElement, busy: boolean): void {
  if (busy) button.setAttribute('aria-disabled', 'true')
  else button.removeAttribute('aria-disabled')
}

export const isBusy = (button: HTMLButtonElement): boolean => button.getAttribute('aria-disabled') === 'true'
