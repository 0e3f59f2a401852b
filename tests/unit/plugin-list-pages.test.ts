/** The plugin list pages hold the spec's page size (§9: "Page size 24, first page 1"), not the reviews' scrolling batch. */
import { expect, it } from 'vitest';
import { pluginRules } from '#contract/plugins.ts';

it('holds 24 plugins on a list page, whatever the reviews load at a time', () => {
  expect(pluginRules.listPageSize).toBe(24);
  expect(pluginRules.reviewsPerLoad).toBe(10);
});
