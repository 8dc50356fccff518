// Copy buttons for install and run commands. Each button names the element holding the text in
// data-copy-target; the command text itself is static HTML, so it reads fine without JavaScript.
//
// When the registry does not know its public URL, commands show a <site-url> (or <page-url>)
// placeholder; here we know it is where the page was served from.

// The registry's root is the site's, base path included (https://user.github.io/repo/).
for (const placeholder of document.querySelectorAll('[data-site-url]')) {
  placeholder.textContent = new URL(document.documentElement.dataset.base || '/', location.origin).href;
}
for (const placeholder of document.querySelectorAll('[data-page-url]')) {
  placeholder.textContent = new URL(location.pathname, location.origin).href;
}

/** The copy shortcut of the reader's platform: ⌘C on Apple devices, Ctrl+C elsewhere. */
function copyShortcut() {
  const platform = navigator.userAgentData?.platform || navigator.platform || navigator.userAgent;
  return /mac|iphone|ipad|ipod/i.test(platform) ? '⌘C' : 'Ctrl+C';
}

async function copy(button) {
  const target = document.getElementById(button.dataset.copyTarget);
  if (!target) return;
  const text = target.textContent.trim();
  let ok = true;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (insecure context, no permission): select the text so the reader's own
    // copy shortcut works.
    ok = false;
    const range = document.createRange();
    range.selectNodeContents(target);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  button.textContent = ok ? 'Copied' : `Press ${copyShortcut()}`;
  button.dataset.copied = ok ? 'true' : 'false';
  // The button's own text is not announced when it changes; the status line is.
  const status = document.querySelector(`[data-copy-status="${CSS.escape(button.dataset.copyTarget)}"]`);
  if (status) status.textContent = ok ? 'Copied to the clipboard' : `Command selected: press ${copyShortcut()} to copy it`;
  setTimeout(() => {
    button.textContent = label;
    delete button.dataset.copied;
    if (status) status.textContent = '';
  }, 2000);
}

for (const button of document.querySelectorAll('button[data-copy-target]')) {
  button.hidden = false;
  button.addEventListener('click', () => copy(button));
}
