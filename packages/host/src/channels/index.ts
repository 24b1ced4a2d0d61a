import type { HostContext } from './context';
import type { ChannelHandlers } from './handlers';
import { compactionHandlers } from './compactions';
import { fileHandlers } from './files';
import { forkHandlers } from './fork';
import { jobHandlers } from './jobs';
import { keepingHandlers } from './keeping';
import { listHandlers } from './list';
import { proxyHandlers } from './proxy';
import { settingsHandlers } from './settings';
import { viewHandlers } from './views';
import { usageHandlers } from './usage';

/**
 * Every channel's handler, from the area modules of this folder. The annotation is the check: a
 * channel in the contract that no area module handles is a compile error here.
 */
export function channelHandlers(host: HostContext): ChannelHandlers {
  return {
    ...settingsHandlers(host),
    ...listHandlers(host),
    ...viewHandlers(host),
    ...forkHandlers(host),
    ...compactionHandlers(host),
    ...fileHandlers(host),
    ...keepingHandlers(host),
    ...jobHandlers(host),
    ...proxyHandlers(host),
    ...usageHandlers(host),
  };
}
