import { agentForFile } from '@glassbox/file-io';
import { Conversations } from './conversations';
import { Forks } from './forks';
import { Keeping } from './keeping';
import { Mappings } from './mappings';
import { Sessions } from './sessions';
import { resolveSetup, type EngineSetup, type Setup } from './setup';

/**
 * The application layer: every use case Glassbox has, for every shell. The CLI parses its arguments,
 * calls one of these and renders the answer; the host validates a request, makes it a job, calls one
 * of these (in a work thread for the heavy ones) and answers the window. Made by the shell, with the
 * agents from the composition root and the Node ports.
 */
export class Glassbox {
  readonly setup: Setup;
  readonly sessions: Sessions;
  readonly conversations: Conversations;
  readonly forks: Forks;
  readonly keeping: Keeping;
  readonly mappings: Mappings;

  constructor(given: EngineSetup) {
    this.setup = resolveSetup(given, (path) => agentForFile(given.agents, path));
    this.forks = new Forks(this.setup);
    this.sessions = new Sessions(this.setup, () => this.forks.lineage());
    this.conversations = new Conversations(this.sessions);
    this.keeping = new Keeping(this.setup, (input) => this.forks.resume(input));
    this.mappings = new Mappings(this.setup);
  }
}
