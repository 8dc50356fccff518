// Copy buttons for install and run commands. Each button names the element holding the text in
// data-copy-target; the command text itself is static HTML, so it reads fine without JavaScript.
//
// When the registry does not know its public URL, commands show a <site-url> placeholder; here we
// know it is the origin the page was served from.

for (const placeholder of document.querySelectorAll('[data-site-url]')) {
  placeholder.textContent = location.origin;
}

async function copy(button) {
  const target = document.getElementById(button.dataset.copyTarget);
  if (!target) return;
  const text = target.textContent.trim();
  let ok = true;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (insecure context, no permission): select the text so Ctrl+C works.
    ok = false;
    const range = document.createRange();
    range.selectNodeContents(target);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  button.textContent = ok ? 'Copied' : 'Press Ctrl+C';
  button.dataset.copied = ok ? 'true' : 'false';
  setTimeout(() => {
    button.textContent = label;
    delete button.dataset.copied;
  }, 2000);
}

for (const button of document.querySelectorAll('button[data-copy-target]')) {
  button.hidden = false;
  button.addEventListener('click', () => copy(button));
}
