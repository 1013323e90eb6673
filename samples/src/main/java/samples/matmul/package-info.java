/**
 * Sample: integer matrix multiplication in bands of rows, one Thread subclass per band (Ajents).
 */
package samples.matmul;
