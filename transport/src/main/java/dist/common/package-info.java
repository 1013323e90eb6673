/** Process-wide plumbing every module shares. */
package dist.common;
