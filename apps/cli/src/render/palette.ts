import { CLASS_COLOUR, type SegmentClass } from '@glassbox/core';
import { styleMark } from './terminal-text';

export interface Paint {
  fg(hex: string, text: string): string;
  bold(text: string): string;
  dim(text: string): string;
  cls(c: SegmentClass | 'unattributed', text: string): string;
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Colours as style marks: the CLI's output sanitiser turns only these into escape sequences (terminal-text.ts). */
export function paint(enabled: boolean): Paint {
  if (!enabled) {
    const id = (_h: string, t: string): string => t;
    return { fg: id, bold: (t) => t, dim: (t) => t, cls: (_c, t) => t };
  }
  const fg = (hex: string, text: string): string => {
    const [r, g, b] = rgb(hex);
    return `${styleMark(`38;2;${r};${g};${b}`)}${text}${styleMark('39')}`;
  };
  return {
    fg,
    bold: (t) => `${styleMark('1')}${t}${styleMark('22')}`,
    dim: (t) => `${styleMark('2')}${t}${styleMark('22')}`,
    // The slate of `live` is too dark on black terminals; keep live text in the default colour.
    cls: (c, t) => (c === 'live' ? t : fg(c === 'unattributed' ? '#8A8A8A' : CLASS_COLOUR[c], t)),
  };
}
