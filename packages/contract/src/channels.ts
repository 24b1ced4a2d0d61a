/** The channels: invoke requests with their argument and result types, push events, and the runtime lists. */
import type { Result } from './results';
import type {
  AutoKeepArgs, ConversationView, CostView, FileOpenArgs, FileOpened, ElisionPreview, ElisionPreviewArgs, ForkArgs, ForkPayload, ForkPayloadArgs, ForkPreview, ForkRefArgs, ForkRemoved, ForkVerified, ForkWritten, HostInfo, HostSync, IndexProgress, JobCancelArgs, JobCancelled, JobProgress, KeepArgs, KeepResultView, RepoMapArgs, RestoreArgs, RestoredView, RetentionInfo, SegmentDetail, SessionPathArgs,
  SegmentDetailArgs, SessionExport, SessionExportArgs, SessionRow, SessionsListArgs, SessionsListResult, SnapshotArgs, SnapshotView, WindowLayout, WindowLayoutArgs,
} from './values';
import type { CompactionFindArgs, CompactionFindResult, CompactionItemArgs, CompactionItemText, CompactionsArgs, CompactionsView } from './compactions';
import type { ProxyView } from './proxy';
import type { UsageReportArgs, UsageReportView } from './usage';

export interface InvokeMap {
  'host:info': { args: Record<string, never>; result: HostInfo };
  /** The host's state now (index progress, visible jobs, list version): what a window applies after subscribing. */
  'host:sync': { args: Record<string, never>; result: HostSync };
  'sessions:list': { args: SessionsListArgs; result: SessionsListResult };
  'sessions:refresh': { args: Record<string, never>; result: IndexProgress };
  'session:snapshot': { args: SnapshotArgs; result: SnapshotView };
  'segment:detail': { args: SegmentDetailArgs; result: SegmentDetail };
  'session:cost': { args: SessionPathArgs; result: CostView };
  'session:conversation': { args: SessionPathArgs; result: ConversationView };
  'session:export': { args: SessionExportArgs; result: SessionExport };
  'fork:preview': { args: ForkArgs; result: ForkPreview };
  'fork:write': { args: ForkArgs; result: ForkWritten };
  /** The results elision would shorten at these thresholds, with three real elisions (head, marker, tail). */
  'fork:elision-preview': { args: ElisionPreviewArgs; result: ElisionPreview };
  'fork:verify': { args: ForkRefArgs; result: ForkVerified };
  'fork:write-original': { args: ForkRefArgs; result: ForkWritten };
  'fork:remove': { args: ForkRefArgs; result: ForkRemoved };
  'fork:payload': { args: ForkPayloadArgs; result: ForkPayload };
  'file:open': { args: FileOpenArgs; result: FileOpened };
  'repo:map': { args: RepoMapArgs; result: HostInfo };
  /** Stops a long job (see JobProgress); what it had written is removed. */
  'job:cancel': { args: JobCancelArgs; result: JobCancelled };
  'session:keep': { args: KeepArgs; result: KeepResultView };
  'session:restore': { args: RestoreArgs; result: RestoredView };
  'retention:info': { args: Record<string, never>; result: RetentionInfo };
  'retention:auto-keep': { args: AutoKeepArgs; result: RetentionInfo };
  'session:compactions': { args: CompactionsArgs; result: CompactionsView };
  'compaction:item': { args: CompactionItemArgs; result: CompactionItemText };
  'compaction:find': { args: CompactionFindArgs; result: CompactionFindResult };
  /** The conversations `glassbox proxy` has served, with what it removed at which request. */
  'proxy:conversations': { args: Record<string, never>; result: ProxyView };
  /** Cost over every indexed session by day, month, project, session or model (ccusage's reports). */
  'usage:report': { args: UsageReportArgs; result: UsageReportView };
  /** The window's layout (the session list's width): read with no argument, saved with one. */
  'window:layout': { args: WindowLayoutArgs; result: WindowLayout };
}
export type InvokeChannel = keyof InvokeMap;
export type ArgsOf<C extends InvokeChannel> = InvokeMap[C]['args'];
export type ResultOf<C extends InvokeChannel> = InvokeMap[C]['result'];

export interface SessionChanged {
  path: string;
  /** The row as it is now, or null when the file went away. */
  row: SessionRow | null;
  reason: 'appended' | 'added' | 'removed' | 'changed';
  /** The host's list version this change was announced at (HostSync.version). */
  version: number;
}

/** A menu item or the OS asked the window to do something (Electron only). */
export interface AppCommand {
  command: 'open-path' | 'fork' | 'search' | 'refresh';
  path?: string;
}

export interface EventMap {
  'index:progress': IndexProgress;
  'session:changed': SessionChanged;
  'app:command': AppCommand;
  /** A long job started, moved on, or ended. */
  'job:progress': JobProgress;
  /** The first frame of every event stream (on connect and reconnect): nothing said before it is lost. */
  'host:sync': HostSync;
}
export type EventChannel = keyof EventMap;

/** Each key of a type exactly once: the compiler rejects a list that misses or invents a channel. */
type Exhaustive<K extends string, L extends readonly string[]> = [K] extends [L[number]]
  ? [L[number]] extends [K]
    ? L
    : never
  : never;

const invokeChannels = [
  'host:info',
  'host:sync',
  'sessions:list',
  'sessions:refresh',
  'session:snapshot',
  'segment:detail',
  'session:cost',
  'session:conversation',
  'session:export',
  'fork:preview',
  'fork:write',
  'fork:elision-preview',
  'fork:verify',
  'fork:write-original',
  'fork:remove',
  'fork:payload',
  'file:open',
  'repo:map',
  'job:cancel',
  'session:keep',
  'session:restore',
  'retention:info',
  'retention:auto-keep',
  'session:compactions',
  'compaction:item',
  'compaction:find',
  'proxy:conversations',
  'usage:report',
  'window:layout',
] as const;
const eventChannels = ['index:progress', 'session:changed', 'app:command', 'job:progress', 'host:sync'] as const;

export const INVOKE_CHANNELS: Exhaustive<InvokeChannel, typeof invokeChannels> = invokeChannels;
export const EVENT_CHANNELS: Exhaustive<EventChannel, typeof eventChannels> = eventChannels;

export function isInvokeChannel(name: unknown): name is InvokeChannel {
  return typeof name === 'string' && (INVOKE_CHANNELS as readonly string[]).includes(name);
}
export function isEventChannel(name: unknown): name is EventChannel {
  return typeof name === 'string' && (EVENT_CHANNELS as readonly string[]).includes(name);
}

/** The API the preload exposes as `window.glassbox`, and the HTTP transport implements in browser mode. */
export interface GlassboxApi {
  invoke<C extends InvokeChannel>(channel: C, args: ArgsOf<C>): Promise<Result<ResultOf<C>>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void;
  /** Electron only: the path of a dropped File (browser files have none). */
  pathForFile?(file: File): string | null;
}
