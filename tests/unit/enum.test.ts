import { describe, expect, it } from 'vitest';
import { enumDefaultColor, enumItem, enumItems } from '../../src/lib/enum.ts';

describe('enum helper', () => {
  it('builds Id, Name and Color items in order', () => {
    const items = enumItems([
      ['DR', 'News'],
      ['DG', 'Guides'],
    ]);
    expect(items).toEqual([
      { Id: 'DR', Name: 'News', Color: 'blue' },
      { Id: 'DG', Name: 'Guides', Color: 'green' },
    ]);
  });

  it('gives red to items past the end of the colour list', () => {
    const items = enumItems(
      [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ],
      ['blue', 'green'],
    );
    expect(items.map((i) => i.Color)).toEqual(['blue', 'green', 'red']);
    expect(enumDefaultColor).toBe('red');
  });

  it('finds an item by id', () => {
    const items = enumItems([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(enumItem(items, 2)?.Name).toBe('two');
    expect(enumItem(items, 3)).toBeUndefined();
  });
});
