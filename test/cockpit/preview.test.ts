/**
 * The announcement's preview on the cockpit page (src/cockpit/render.ts preview): the BBCode the tool
 * posts turned into the matching elements, and everything else — a player's name or words holding
 * markup, a link that is not http(s) — left as text.
 */
import { describe, expect, it } from 'vitest';
import { preview } from '../../src/cockpit/render.js';

const html = (s: string) => preview(s).toString();

describe('the announcement preview', () => {
  it('draws the BBCode the announcement uses', () => {
    expect(html('[b]票数[/b]\n[color=red]月饼[/color] [s]饺子[/s]')).toBe('<b>票数</b><br><span class="c-red">月饼</span> <s>饺子</s>');
    expect(html('[url=http://127.0.0.1:8081/forum.php?mod=redirect&goto=findpost&pid=5]#2[/url]'))
      .toBe('<a href="http://127.0.0.1:8081/forum.php?mod=redirect&amp;goto=findpost&amp;pid=5" target="_blank" rel="noopener noreferrer">#2</a>');
  });

  it('leaves markup in names and words as text, and a link that is not http(s) without its address', () => {
    const out = html('投票对象：<img src=x onerror=alert(1)>\n<script>alert(1)</script>[url=javascript:alert(1)]x[/url][color=red" onclick="x]y[/color]');
    expect(out).not.toMatch(/<img|<script|javascript:|onclick="/);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('<a>x</a>');
  });
});
