/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceBetweenMarkers(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i === -1 || j === -1 || j < i) throw new Error(`markers ${start} … ${end} not found`);
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`;
}
