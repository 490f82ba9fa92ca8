// The serverless deployments the reference shows, one per state (ready, warming up, without
// GPU capacity, stopped), and the graph each is built around. Data only: the serverless
// surface mounts them, the v2 policy answers their state, and faults may read both.

export type DeploymentState = 'ready' | 'not_ready' | 'unavailable' | 'stopped';

export const DEPLOYMENTS: Record<string, DeploymentState> = {
  'dep-ready': 'ready',
  'dep-warming': 'not_ready',
  'dep-nogpu': 'unavailable',
  'dep-stopped': 'stopped',
};

/** The graph a deployment is built around, returned by GET /workflow until a job has run there. */
export const DEPLOYMENT_WORKFLOW = {
  '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, color: 0 } },
  '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'deployment' } },
};
