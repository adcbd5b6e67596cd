import type { Plugin } from 'esbuild'

export const clientNodeConfigImports: Plugin
export const plugins: Plugin[]
