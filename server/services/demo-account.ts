/** The demo account a fresh embedded database gets (README): its phone and published password. */
export const demoAccount = { phone: '13800000000', password: 'beacon-demo-2026' } as const;
