// Paths into the testmend repository this extension lives in.
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
/** The Python environment scripts/setup.sh creates, with testmend installed. */
export const REPO_PYTHON = path.join(REPO_ROOT, '.venv', 'bin', 'python');
export const EXAMPLE_APP = path.join(REPO_ROOT, 'examples', 'react-app');
