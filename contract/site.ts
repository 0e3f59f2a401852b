/** Where the site is published unless SITE_URL says otherwise: the build bakes it into canonical URLs, the server into links it e-mails. */
export const defaultSiteUrl = 'https://beacontoolkit.net';
