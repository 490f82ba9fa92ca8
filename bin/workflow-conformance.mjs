#!/usr/bin/env node
// The installed entry point. The suite ships as TypeScript; tsx (a runtime dependency)
// loads it, in this process and in every process the CLI starts.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
