/*
 * `task-surface/transport/cluster` (Node only): several host processes on one PostgreSQL database,
 * one owner per session, requests and watches sent to it. See docs/cluster.md.
 */
export {
  joinCluster,
  ClusterNode,
  DEFAULT_PEER_LIMITS,
  type ClusterHost,
  type ClusterOptions,
  type ClusterStore,
  type Route,
} from './node.js';
export type { PeerLimits } from './peers.js';
export type { Queryable } from './ownership.js';
