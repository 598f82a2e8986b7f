import SegueRender
import SegueInput
import SegueModel
/// Segue's version: the one place it is written. `segue --version` prints it,
/// and Scripts/package names the Debian package by it.
public enum SegueVersion {
    public static let current = "0.2.0"
}
