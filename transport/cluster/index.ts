/*
 * `task-surface/transport/cluster` (Node only): several host processes on one PostgreSQL database,
 * one owner per session, requests and watches sent to it. See docs/cluster.md.
 */
export { joinCluster, ClusterNode, type Route } from './node.js';
export type { ClusterHost, ClusterOptions, ClusterStore } from './types.js';
export { DEFAULT_PEER_LIMITS, type PeerLimits } from './peers.js';
export type { Queryable } from './ownership.js';
