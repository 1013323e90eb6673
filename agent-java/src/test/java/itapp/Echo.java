package itapp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

/** Says it is ready, then echoes each line of standard input until its end: a running JVM to attach to. */
public final class Echo {
    private Echo() {}

    public static void main(String[] args) throws IOException {
        System.out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            System.out.println("echo " + line);
        }
        System.out.println("done");
    }
}
