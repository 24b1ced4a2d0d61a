import type { SummaryState } from '@glassbox/core';
import { claimFile } from './claim';
import { listedRow } from './file-rows';
import type { RefreshReport } from './index-types';
import { quickLook } from '../shared/quick';
import { clearContent, type Planned, type ProgressFn, type RefreshContext, type SummaryWork } from './refresh-context';
import { rowFingerprint } from './refresh-plan';
import { sameFingerprint } from '../shared/scan';
import { Stage } from './stage';

/**
 * List: new files get a row from their first and last records (list figures before any full pass).
 * The files are read first, then every row is written in one short transaction; a file another
 * writer has summarised meanwhile, as it is now, is left alone.
 */
export function listStage(ctx: RefreshContext, fresh: Planned[], report: RefreshReport, progress: ProgressFn): SummaryWork[] {
  const { store, agents } = ctx;
  progress('list', 0, fresh.length, 0, 0);
  const looked = fresh.map((f) => {
    // A file in another agent's roots goes to the adapter that recognises it, with a notice; one
    // no adapter reads is listed as unreadable with the reason (claim.ts).
    const claim = claimFile(agents, f.file.file);
    if (claim.status === 'moved') {
      f.file.file = claim.file;
      report.notices.push(claim.notice);
    } else if (claim.status === 'foreign') return { f, fp: f.fp, state: null, note: claim.note };
    try {
      const q = quickLook(f.path, f.file.file.kind === 'subagent', agents.byId(f.file.file.agent).format);
      report.bytesRead += q.bytesRead;
      report.opened.push(f.path);
      return { f, fp: q.fingerprint, state: q.state as SummaryState | null, note: null as string | null };
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      return { f, fp: f.fp, state: null, note: `cannot be read (${e.code ?? e.message})` };
    }
  });
  const written = store.write(() =>
    looked.map(({ f, fp, state, note }) => {
      const now = store.st.fileByPath.get(f.path);
      if (now && now.level >= Stage.summarised && sameFingerprint(rowFingerprint(now), fp)) return null;
      const base = listedRow(f.file.file, f.file.origin, fp, state, note);
      const id = store.st.upsertFile.run(base);
      clearContent(store.st, id);
      return { planned: f, row: { ...base, id }, existed: !!now };
    }),
  );
  const out: SummaryWork[] = [];
  for (const w of written) {
    if (!w) {
      report.unchanged++;
      continue;
    }
    if (w.row.level === Stage.unreadable) report.unreadable++;
    else out.push(w);
    ctx.emitChange(w.existed ? 'updated' : 'added', w.row.level === Stage.unreadable ? 'unreadable' : 'new', w.row, w.row);
  }
  progress('list', fresh.length, fresh.length, 0, 0);
  return out;
}
