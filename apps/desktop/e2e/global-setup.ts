// Builds the web renderer once before the run (glassbox ui serves it).
import { buildWeb } from '@glassbox/renderer/build';

export default async function globalSetup(): Promise<void> {
  await buildWeb();
}
