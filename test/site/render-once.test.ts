import { describe, expect, it } from 'vitest';
import { renderOnce } from '../../src/site/render/once.ts';

describe('renderOnce', () => {
  it('renders an object and variant once, and each other pair on its own', async () => {
    const calls: string[] = [];
    const render = (label: string) => async () => {
      calls.push(label);
      return `<li>${label}</li>`;
    };
    const card = {};
    const other = {};
    expect(await renderOnce(card, 'h2', render('card h2'))).toBe('<li>card h2</li>');
    expect(await renderOnce(card, 'h2', render('again'))).toBe('<li>card h2</li>');
    expect(await renderOnce(card, 'h3', render('card h3'))).toBe('<li>card h3</li>');
    expect(await renderOnce(other, 'h2', render('other h2'))).toBe('<li>other h2</li>');
    expect(calls).toEqual(['card h2', 'card h3', 'other h2']);
  });

  it('shares one rendering between pages that ask at the same time', async () => {
    let calls = 0;
    let finish: (html: string) => void = () => {};
    const render = () => {
      calls++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const card = {};
    const first = renderOnce(card, 'h3', render);
    const second = renderOnce(card, 'h3', render);
    finish('<li>card</li>');
    expect(await Promise.all([first, second])).toEqual(['<li>card</li>', '<li>card</li>']);
    expect(calls).toBe(1);
  });
});
