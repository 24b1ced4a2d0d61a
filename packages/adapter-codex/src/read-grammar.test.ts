import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRolloutFile } from './node/read-file';
import { matchPureRead, readFromOutput } from './read-grammar';
import { shapeOfCall } from './tool-ops';
import { firstRollout, manifestCwd } from '@glassbox/test-support/codex/corpus';

describe('the pure-read grammar', () => {
  it.each([
    ['cat src/a.mjs', { path: 'src/a.mjs', numbered: false, start: 1, end: null }],
    ['cat -n src/a.mjs', { path: 'src/a.mjs', numbered: true, start: 1, end: null }],
    ['nl -ba src/a.mjs', { path: 'src/a.mjs', numbered: true, start: 1, end: null }],
    ["sed -n '8,18p' src/a.mjs", { path: 'src/a.mjs', numbered: false, start: 8, end: 18 }],
    ['sed -n 20p src/a.mjs', { path: 'src/a.mjs', numbered: false, start: 20, end: 20 }],
    ["sed -n '18,$p' src/a.mjs", { path: 'src/a.mjs', numbered: false, start: 18, end: null }],
    ["nl -ba src/a.mjs | sed -n '8,18p'", { path: 'src/a.mjs', numbered: true, start: 8, end: 18 }],
    ['cat -n "src/my file.mjs" | head -n 5', { path: 'src/my file.mjs', numbered: true, start: 1, end: 5 }],
    ['head -n 15 data/t.csv', { path: 'data/t.csv', numbered: false, start: 1, end: 15 }],
    ['head -5 data/t.csv', { path: 'data/t.csv', numbered: false, start: 1, end: 5 }],
    ['tail -n +40 src/a.mjs', { path: 'src/a.mjs', numbered: false, start: 40, end: null }],
    ['tail -n 6 src/a.mjs', { path: 'src/a.mjs', numbered: false, start: 1, end: null, lastN: 6 }],
  ])('%s is a read', (cmd, spec) => {
    expect(matchPureRead(cmd)).toEqual(spec);
  });

  it.each([
    'cat src/format.mjs | grep export',
    'cat -A docs/NOTES.md',
    'cat docs/NOTES.md > /dev/null; echo copied',
    'cat src/format.mjs docs/NOTES.md',
    'cat src/*.mjs',
    'cat ~/notes.md',
    'cat $HOME/notes.md',
    'cat `ls`',
    'cat "a$b"',
    'cat a && cat b',
    'cat a || true',
    'cat < a',
    'head -n 0 a',
    'head -c 10 a',
    "sed -n '20,10p' a",
    "sed -n '1,5p;8p' a",
    "sed -i '1d' a",
    "sed -n '1,5p' a b",
    "nl -ba a | sed -n '1,5p' | head",
    "nl a | sed -n '1,5p'",
    "cat a | sed -n '1,5p'",
    'FOO=1 cat a',
    'cat -- a',
    'cat -',
    "cat 'unterminated",
    'cat a\ncat b',
    'tail -f a',
    'tail -n +0 a',
    'less a',
  ])('%j is not a read', (cmd) => {
    expect(matchPureRead(cmd)).toBeNull();
  });

  it('turns numbered output back into the file text and its range', () => {
    const body = '     8\texport function row(task) {\n     9\t  const x = 1;\n    10\t\n';
    const op = readFromOutput(matchPureRead("nl -ba src/f.mjs | sed -n '8,18p'")!, body, '/p', true)!;
    expect(op).toMatchObject({ path: '/p/src/f.mjs', startLine: 8, numLines: 3, totalLines: 10, full: false, capturedText: 'export function row(task) {\n  const x = 1;\n' });
  });

  it('refuses numbered output whose numbers do not follow the range', () => {
    expect(readFromOutput(matchPureRead("nl -ba f | sed -n '8,9p'")!, '     1\ta\n     2\tb\n', '/p', true)).toBeNull();
    expect(readFromOutput(matchPureRead("sed -n '1,2p' f")!, 'a\nb\nc\n', '/p', true)).toBeNull();
  });

  it('knows a whole file only when the output proves it', () => {
    expect(readFromOutput(matchPureRead('cat f')!, 'a\nb\n', '/p', true)).toMatchObject({ full: true, numLines: 2, capturedText: 'a\nb\n' });
    expect(readFromOutput(matchPureRead('head -n 5 f')!, 'a\nb\n', '/p', true)).toMatchObject({ full: true, totalLines: 2 });
    expect(readFromOutput(matchPureRead('head -n 2 f')!, 'a\nb\n', '/p', true)).toMatchObject({ full: false, totalLines: null });
    // the last N lines of a file at least N long: their position is unknown
    expect(readFromOutput(matchPureRead('tail -n 2 f')!, 'a\nb\n', '/p', true)).toBeNull();
    expect(readFromOutput(matchPureRead('tail -n 5 f')!, 'a\nb\n', '/p', true)).toMatchObject({ full: true, startLine: 1 });
    // a relative path with no working directory cannot be placed
    expect(readFromOutput(matchPureRead('cat f')!, 'a\n', null, true)).toBeNull();
  });

  const safeWord = fc.stringMatching(/^[a-z][a-z0-9_./-]{0,10}$/);
  const readCommand = fc.oneof(
    safeWord.map((f) => `cat ${f}`),
    fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 0, max: 50 }), safeWord).map(([a, d, f]) => `sed -n '${a},${a + d}p' ${f}`),
    fc.tuple(fc.integer({ min: 1, max: 99 }), safeWord).map(([n, f]) => `head -n ${n} ${f}`),
    fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 0, max: 50 }), safeWord).map(([a, d, f]) => `nl -ba ${f} | sed -n '${a},${a + d}p'`),
  );
  /** Ways to make a read command something else: a flag, a stage, a redirection, a chain, an expansion. */
  const spoil = fc.oneof(
    fc.constantFrom(' | grep x', ' | wc -l', ' > out', ' 2>&1', ' >> log', '; rm -rf x', ' && echo ok', ' || true', ' &', ' | tee f', ' < in').map((tail) => (c: string) => c + tail),
    fc.constantFrom('-A', '-v', '-e', '-s', '-E', '--number').map((flag) => (c: string) => c.replace(/^(\S+)/, `$1 ${flag}`)),
    fc.constantFrom('sudo ', 'FOO=1 ', 'time ', 'env ', 'xargs ', '( ', '$(').map((head) => (c: string) => head + c),
    fc.constantFrom('*', '?', '~', '$X', '`x`', '{a,b}', '[ab]').map((glob) => (c: string) => c.replace(/(\S+)$/, `$1${glob}`)),
    fc.constant((c: string) => `${c} extra-file`),
  );

  it('never takes a command outside the grammar for a read (property)', () => {
    fc.assert(
      fc.property(readCommand, spoil, (cmd, f) => {
        expect(matchPureRead(cmd)).not.toBeNull();
        const spoiled = f(cmd);
        expect(matchPureRead(spoiled)).toBeNull();
        // and through the whole call path, an exec_command of it is a command, never a read candidate
        const shape = shapeOfCall({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: spoiled }), call_id: 'c' }, '/p');
        expect(shape.op.kind).toBe('command');
        expect(shape.readSpec).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('never takes an arbitrary string for a read unless it is one of the forms (property)', () => {
    // Random text alone met no read in 40000 tries, so half the strings start with a read verb and a flag.
    const verb = fc.constantFrom('cat ', 'cat -n ', 'nl -ba ', "sed -n '1,5p' ", 'head -n 3 ', 'tail -n 4 ', 'less ', 'grep x ');
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.tuple(verb, fc.string({ maxLength: 20 })).map(([v, rest]) => v + rest));
    let reads = 0;
    let others = 0;
    fc.assert(
      fc.property(text, (s) => {
        const read = matchPureRead(s) !== null;
        expect(!read || /^\s*(cat|nl|sed|head|tail)\s/.test(s), s).toBe(true);
        if (read) reads++;
        else others++;
      }),
      { numRuns: 2000, seed: 117 },
    );
    // both outcomes were met (the counts depend on the seed)
    expect(reads).toBeGreaterThan(100);
    expect(others).toBeGreaterThan(100);
  });
});

describe('reads and commands in a real session (04-read-grammar-and-fork)', () => {
  const s = readRolloutFile(firstRollout('04-read-grammar-and-fork'), { keepCapturedText: true });
  const calls = [...s.toolCalls.values()];
  const opOf = (cmd: string) => calls.find((c) => (c.op.kind === 'command' ? c.op.command : c.source.label) === cmd || c.source.label === cmd);
  const cwd = manifestCwd('04-read-grammar-and-fork');

  it('makes reads of every grammar form whose output fits, with the captured text', () => {
    const reads = calls.filter((c) => c.op.kind === 'read').map((c) => c.op.kind === 'read' && [c.op.path.slice(cwd.length + 1), c.op.startLine, c.op.numLines, c.op.full]);
    expect(reads).toEqual([
      ['src/format.mjs', 8, 11, false],
      ['src/format.mjs', 1, 23, false],
      ['src/store.mjs', 40, 14, false],
      ['data/tasks.csv', 1, 5, false],
      ['src/format.mjs', 20, 1, false],
      ['src/format.mjs', 18, 6, false],
      ['docs/NOTES.md', 1, 6, false],
    ]);
    const sed20 = calls.find((c) => c.op.kind === 'read' && c.op.startLine === 20)!;
    expect(sed20.op.kind === 'read' && sed20.op.capturedText).toBe('export function summary(tasks) {');
  });

  it('leaves near-misses, a tail of unknown position and a failed read as commands', () => {
    for (const cmd of ['tail -n 6 src/store.mjs', 'cat src/format.mjs | grep export', 'cat -A docs/NOTES.md', 'cat docs/NOTES.md > /dev/null; echo copied', 'cat src/format.mjs docs/NOTES.md', "sed -n '1,5p' src/missing.mjs"]) {
      const c = opOf(cmd);
      expect(c?.op.kind, cmd).toBe('command');
    }
    expect(opOf("sed -n '1,5p' src/missing.mjs")?.isError).toBe(true);
  });
});
