/** A part of an article's body that search returns on its own. */
export interface Passage {
  /** Its order in the body, from 0. */
  position: number;
  /** The nearest markdown heading above it, if any. */
  heading: string | null;
  text: string;
}

interface Section {
  heading: string | null;
  blocks: string[];
}

const HEADING = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/** The body's sections (split at headings) and their blocks (paragraphs; a fenced code block is one). */
function sectionsOf(body: string): Section[] {
  const sections: Section[] = [{ heading: null, blocks: [] }];
  let block: string[] = [];
  let fence: string | undefined;
  const current = () => sections[sections.length - 1]!;
  const endBlock = () => {
    const text = block.join('\n').trim();
    if (text) current().blocks.push(text);
    block = [];
  };
  for (const line of body.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence) {
      block.push(line);
      if (fenceMark === fence) fence = undefined;
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      block.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endBlock();
      sections.push({ heading: heading[1]!.trim() || null, blocks: [] });
    } else if (line.trim() === '') endBlock();
    else block.push(line);
  }
  endBlock();
  return sections;
}

/** Text cut into pieces of at most `max` characters: at sentence ends, else at a space, else anywhere. */
function piecesOf(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    const sentenceEnd = Math.max(...[...window.matchAll(/[.!?]\s/g)].map((m) => m.index + 1), 0);
    const space = window.lastIndexOf(' ');
    const cut = sentenceEnd > max / 3 ? sentenceEnd : space > max / 3 ? space : max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * An article's body as passages of at most `maxChars` characters: cut at markdown headings, then
 * paragraphs packed together while they fit, a paragraph too long for one passage cut at its
 * sentences. Search ranks passages, so an answer comes back as the part of an article that holds
 * it, and a passage never spans two headings.
 */
export function cutPassages(body: string, maxChars: number): Passage[] {
  const passages: Passage[] = [];
  for (const section of sectionsOf(body)) {
    let text = '';
    const flush = () => {
      if (text) passages.push({ position: passages.length, heading: section.heading, text });
      text = '';
    };
    for (const piece of section.blocks.flatMap((block) => piecesOf(block, maxChars))) {
      if (text && text.length + 2 + piece.length > maxChars) flush();
      text = text ? `${text}\n\n${piece}` : piece;
    }
    flush();
  }
  // A body of headings alone is still findable: as itself.
  if (passages.length === 0) return [{ position: 0, heading: null, text: body.trim() }];
  return passages;
}
