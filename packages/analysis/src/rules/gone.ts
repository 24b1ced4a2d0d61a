import { failed } from './file-events';
import type { ClassRule } from './rule';

/**
 * gone: the file a segment read or wrote does not exist now, and the working directory it lived in
 * does. A session from another machine, or a moved checkout that is not mapped, proves nothing.
 */
export const goneRule: ClassRule<'gone'> = {
  class: 'gone',
  stage: 10,
  apply(ctx) {
    if (!ctx.repoExists) return;
    for (const [path, events] of ctx.fileEvents()) {
      const onDisk = ctx.onDisk(path);
      if (onDisk === null || ctx.kindOf(onDisk) !== 'missing') continue;
      for (const ev of events) {
        if (failed(ev)) continue;
        ctx.mark(ev.seg, 'gone', { path, checkedPath: onDisk, checkedAt: ctx.checkedAt, cwdExists: true });
      }
    }
  },
};
