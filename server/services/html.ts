/** Text for an HTML (or XML) context: `& < > " '` as character references, so nothing in it can become markup. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
