// What a post may contain: its HTML is sanitised here, its image checked by its bytes and resized.
import { POST_IMAGE_WIDTH } from '@leadrelay/shared';
import sanitizeHtml from 'sanitize-html';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error';

/** What the editor produces (paragraphs, headings, lists, quotes, code, links) and nothing else:
 * no script, style, iframe, event handler or javascript: link survives. */
const HTML_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'code',
    'pre',
    'hr',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  transformTags: {
    // Links leave the site without handing it the opener.
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
  },
};

export const sanitizePostHtml = (html: string): string => sanitizeHtml(html, HTML_OPTIONS).trim();

// A Map: a name in the text (`&valueOf;`) is data, not a member of the table.
const ENTITIES = new Map(Object.entries({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }));

/** sanitize-html leaves text escaped; plain text (a preview, an excerpt) needs it back as characters. */
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES.get(name.toLowerCase()) ?? whole;
  });

/** The text of a post without markup (link previews, the list's excerpt). */
export const plainText = (html: string): string =>
  decodeEntities(
    sanitizeHtml(html.replace(/<\/(p|h\d|li|blockquote|pre)>|<br\s*\/?>/gi, '$& '), {
      allowedTags: [],
      allowedAttributes: {},
    }),
  )
    .replace(/\s+/g, ' ')
    .trim();

const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif']);

/**
 * The image as stored: decoded from its bytes (the file name and declared type are ignored), at most
 * POST_IMAGE_WIDTH wide, turned upright, re-encoded as JPEG (every link preview reads it) without
 * its metadata (camera, location).
 */
export async function storedImage(bytes: Buffer): Promise<{ data: Buffer; type: string }> {
  let format: string | undefined;
  try {
    format = (await sharp(bytes).metadata()).format;
  } catch {
    throw new AppError('IMAGE_INVALID', { errors: [{ field: 'image', code: 'IMAGE_INVALID' }] });
  }
  if (!format || !IMAGE_FORMATS.has(format)) {
    throw new AppError('IMAGE_INVALID', { errors: [{ field: 'image', code: 'IMAGE_INVALID' }] });
  }
  try {
    const data = await sharp(bytes, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize({ width: POST_IMAGE_WIDTH, withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
    return { data, type: 'image/jpeg' };
  } catch {
    // A truncated or corrupt file passes the header check and fails here.
    throw new AppError('IMAGE_INVALID', { errors: [{ field: 'image', code: 'IMAGE_INVALID' }] });
  }
}
