/**
 * Where the runner writes for the person at the keyboard. Plain text rather than pino JSON: this output is read by a
 * human (and its curl lines are pasted into a shell), while each service keeps its own JSON logs.
 */
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  paint(text: string, color: Color): string;
}

export type Color = 'cyan' | 'magenta' | 'yellow' | 'green' | 'red' | 'dim' | 'bold';

const CODES: Record<Color, [number, number]> = {
  cyan: [36, 39],
  magenta: [35, 39],
  yellow: [33, 39],
  green: [32, 39],
  red: [31, 39],
  dim: [2, 22],
  bold: [1, 22],
};

export function processTerminal(options: { color: boolean }): Terminal {
  return {
    out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    paint: (text, color) => {
      if (!options.color) return text;
      const [open, close] = CODES[color];
      return `\u001b[${open}m${text}\u001b[${close}m`;
    },
  };
}
