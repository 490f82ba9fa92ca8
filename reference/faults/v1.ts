// Faults of the deprecated v1 cloud operations and their WebSocket stream (seed W):
// each breaks exactly one rule. One file per area under reference/faults/v1/.
import { V1_OPERATION_FAULTS } from './v1/operations.ts';
import { V1_SOCKET_FAULTS } from './v1/socket.ts';

export const V1_FAULTS = [...V1_OPERATION_FAULTS, ...V1_SOCKET_FAULTS] as const;
