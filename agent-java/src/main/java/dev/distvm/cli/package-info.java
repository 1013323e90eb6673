/**
 * The subcommands of {@code ./dist} that run in a JVM of their own ({@code coordinator},
 * {@code status}, {@code mpirun}).
 */
package dev.distvm.cli;
