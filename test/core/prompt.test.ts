import { describe, expect, it } from 'vitest';
import { renderSkillLoad, toPrompt } from '../../src/core/prompt.ts';

describe('toPrompt', () => {
  it('renders the Agent Skills format exactly, HTML-escaped', () => {
    const text = toPrompt([
      { name: 'pdf', description: 'Read <PDF> & "forms" it\'s', location: '/abs/path/SKILL.md' },
      { name: 'b', description: 'Second' },
    ]);
    expect(text).toBe(
      [
        '<available_skills>',
        '<skill>', '<name>', 'pdf', '</name>', '<description>', 'Read &lt;PDF&gt; &amp; &quot;forms&quot; it&#x27;s', '</description>',
        '<location>', '/abs/path/SKILL.md', '</location>', '</skill>',
        '<skill>', '<name>', 'b', '</name>', '<description>', 'Second', '</description>', '</skill>',
        '</available_skills>',
      ].join('\n'),
    );
  });

  it('renders empty lists as an empty block in both styles', () => {
    expect(toPrompt([])).toBe('<available_skills>\n</available_skills>');
    expect(toPrompt([], { style: 'available-skills' })).toBe('<available-skills>\n</available-skills>');
  });

  it('renders seed 003 <available-skills>', () => {
    expect(toPrompt([{ name: 'code-quality-analyzer', description: '分析代码质量并提供改进建议' }, { name: 'x"y', description: 'a<b' }], { style: 'available-skills' })).toBe(
      '<available-skills>\n  <skill name="code-quality-analyzer">\n    分析代码质量并提供改进建议\n  </skill>\n  <skill name="x&quot;y">\n    a&lt;b\n  </skill>\n</available-skills>',
    );
  });

  it('renders seed 003 skill load output', () => {
    expect(renderSkillLoad('code-refactor', '# Body\n')).toBe('# Skill: code-refactor\n\n# Body\n');
  });
});
