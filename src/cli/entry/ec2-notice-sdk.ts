/**
 * @module The AWS SDK clients the EC2 notice source needs, re-exported from a module of ours so the
 * worker can load them with import() only when the source is configured. Not `import('@aws-sdk/…')`
 * directly: the packages are CommonJS, and in the ESM bundles esbuild makes (scripts/build.mjs) a
 * dynamic import of one yields only a default export, so its named classes came back undefined
 * ("SQSClient is not a constructor"); a static re-export goes through esbuild's interop.
 */
export { EC2Client } from '@aws-sdk/client-ec2'
export { SQSClient } from '@aws-sdk/client-sqs'
