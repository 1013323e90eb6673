/** Classes of a second package for the conformance cases of {@link itapp.jmm.Conformance}: statics reached across packages. */
package itapp.jmm.elsewhere;
