package io.columnarkafka.flink.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The probe of private members: found, of the declared type, made accessible; else the first that is not, and why. */
class PrivateMembersTest {
    @SuppressWarnings("unused") // read by reflection
    private static final class Holder {
        private final String name = "held";
        private final int count = 3;

        private String greet(String whom) {
            return "hello " + whom;
        }

        private String fail() {
            throw new UnsupportedOperationException("inside");
        }
    }

    @Test
    void aProbeThatFindsEveryMemberReadsAndInvokesThem() {
        PrivateMembers members = PrivateMembers.of(Holder.class).field("name", CharSequence.class)
                .method("greet", String.class, String.class).method("fail", String.class).probe();
        assertThat(members.unreadable()).isEmpty();
        Holder holder = new Holder();
        assertThat(members.read(holder, "name", CharSequence.class)).isEqualTo("held");
        assertThat(members.invoke(holder, "greet", String.class, "you")).isEqualTo("hello you");
        assertThatThrownBy(() -> members.invoke(holder, "fail", String.class))
                .isInstanceOf(UnsupportedOperationException.class).hasMessage("inside");
    }

    @Test
    void aMissingFieldIsTheReason() {
        PrivateMembers members = PrivateMembers.of(Holder.class).field("name", String.class).field("absent", String.class)
                .field("count", int.class).probe();
        assertThat(members.unreadable()).contains(Holder.class.getName() + " has no field absent");
        assertThatThrownBy(() -> members.read(new Holder(), "name", String.class))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after a failed probe");
    }

    @Test
    void aFieldOfAnotherTypeIsTheReason() {
        assertThat(PrivateMembers.of(Holder.class).field("count", long.class).probe().unreadable())
                .contains(Holder.class.getName() + ".count is a int, not a long");
    }

    @Test
    void aMissingMethodOrOneReturningAnotherTypeIsTheReason() {
        assertThat(PrivateMembers.of(Holder.class).method("greet", String.class, Integer.class).probe().unreadable())
                .contains(Holder.class.getName() + " has no method greet(Integer)");
        assertThat(PrivateMembers.of(Holder.class).method("greet", Integer.class, String.class).probe().unreadable())
                .contains(Holder.class.getName() + ".greet is a java.lang.String, not a java.lang.Integer");
    }

    @Test
    void aMemberOfAClosedModuleIsTheReason() {
        // java.base does not open java.lang to this unnamed module
        assertThat(PrivateMembers.of(String.class).field("value", byte[].class).probe().unreadable())
                .contains("java.lang.String.value cannot be made accessible (its module does not open java.lang)");
    }
}
