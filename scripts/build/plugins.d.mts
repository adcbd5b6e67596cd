import type { Plugin } from 'esbuild'

export const nodeFetchNativeUrl: Plugin
export const clientNodeConfigImports: Plugin
export const plugins: Plugin[]
