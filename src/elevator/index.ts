/** The elevator floor (电梯楼) and the elevator ring the rules walk (rules-spec §9). */
export { elevatorFloor, type ElevatorEntry, type ElevatorFloor } from './floor.js';
export { neighbourPairs, ringSpan, elevatorRing, duelPairs, arbiterRange } from './ring.js';
export { forumLinkStyle, authorOnlyUrl, type LinkStyle } from './links.js';
