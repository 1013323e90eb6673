/**
 * The Java memory model cases a distributed run must keep (visibility, monitors, wait/notify,
 * interrupts, class initialization, identity, volatile spins), as an ordinary program that prints
 * ok or FAIL per case.
 */
package itapp.jmm;
