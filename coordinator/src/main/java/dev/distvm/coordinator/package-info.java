/**
 * Membership (DESIGN.md §2): the {@link dev.distvm.coordinator.Coordinator} admits nodes, hears
 * their heartbeats and load, suspects and then declares dead the silent ones, and announces every
 * change; {@link dev.distvm.coordinator.Membership} is a node's side of the same protocol. Never on
 * the path of an object access or a lock.
 */
package dev.distvm.coordinator;
