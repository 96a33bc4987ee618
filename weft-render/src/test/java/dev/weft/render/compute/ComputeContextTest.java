package dev.weft.render.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.render.EglHeadlessContext;
import dev.weft.render.RenderUnavailableException;
import org.junit.jupiter.api.Test;

/** The compute context: OpenGL 4.3 where Mesa is installed, a clear error where the version is missing. */
class ComputeContextTest {
    @Test
    void theTestMachineHasOpenGl43ComputeShaders() {
        try (ComputeContext c = ComputeContext.open()) {
            assertThat(c.description()).contains("OpenGL 4.");
        }
    }

    /**
     * No driver offers OpenGL 9.9: asking for it takes the path a driver without 4.3 takes, and the
     * message says what the backend needs and what to install; the renderer's context stays current.
     */
    @Test
    void aMissingOpenGlVersionIsAClearErrorAndLeavesTheThreadsContextAlone() {
        try (EglHeadlessContext renderer = EglHeadlessContext.create()) {
            assertThatThrownBy(() -> ComputeContext.open(9, 9)).isInstanceOf(RenderUnavailableException.class)
                    .hasMessageContaining("GLSL compute backend needs OpenGL 9.9 (compute shaders)")
                    .hasMessageContaining("apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri");
            assertThat(renderer.isCurrent()).isTrue();
        }
    }
}
