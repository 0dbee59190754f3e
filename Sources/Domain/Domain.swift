import Streams
import NetCore
public enum Domain {}
