/** A QR code as an inline SVG for an answer: one line, since the library ends it with a newline and answers carry no control characters. */
import QRCode from 'qrcode';

export async function qrSvg(text: string): Promise<string> {
  return (await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })).replace(/\s+/g, ' ').trim();
}
