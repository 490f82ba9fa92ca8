#!/usr/bin/env node
// The installed entry point. The suite ships as TypeScript; tsx (a runtime dependency)
// loads it, in this process and in every process the CLI starts.
import module from 'node:module';
import { register } from 'tsx/esm/api';

// Node 22 keeps compiled code on disk between runs (cli/run-start.ts hands the folder to the
// Playwright workers); Node 20 has no such cache and skips this.
module.enableCompileCache?.();
register();
await import('../cli/main.ts');
