/** An item of an enumeration as the interface shows it. */
export interface EnumItem<Id extends string | number = string> {
  Id: Id;
  Name: string;
  Color: string;
}

/** Badge colours in order; an index past the end gets red. */
export const enumPalette = ['blue', 'green', 'orange', 'purple', 'cyan', 'gold'] as const;
export const enumDefaultColor = 'red';

/** Builds enum items from ids and their display names, colouring them by position. */
export function enumItems<Id extends string | number>(entries: ReadonlyArray<readonly [Id, string]>, palette: readonly string[] = enumPalette): EnumItem<Id>[] {
  return entries.map(([Id, Name], index) => ({ Id, Name, Color: palette[index] ?? enumDefaultColor }));
}

/** Finds an item by id; undefined for an id the enumeration does not have. */
export function enumItem<Id extends string | number>(items: readonly EnumItem<Id>[], id: Id): EnumItem<Id> | undefined {
  return items.find((item) => item.Id === id);
}
