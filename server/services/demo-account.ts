/** The demo account a fresh embedded database gets (docs/tour.md): its phone and published password. */
export const demoAccount = { phone: '13800000000', password: 'beacon-demo-2026' } as const;
